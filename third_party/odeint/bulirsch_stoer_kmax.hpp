// Gragg-Bulirsch-Stoer with a larger extrapolation tableau: Boost.Odeint
// 1.74's controlled `bulirsch_stoer` (boost/numeric/odeint/stepper/
// bulirsch_stoer.hpp, Boost Software License 1.0, (C) 2011-2013 Karsten
// Ahnert, Mario Mulansky, Christoph Koke), copied unchanged except that the
// number of extrapolation columns, a hard-coded `m_k_max = 8` upstream, is
// the template parameter KMax (and the class and its self-typedef are renamed).
//
// Why: with 8 columns the order is at most ~16, and at 100 digits the steps
// that reach 1e-80..1e-95 become tiny (measured on the skate, t in [0, 2],
// mp100, Odeint's dense-output Bulirsch-Stoer: 12.6k RHS calls at rtol
// 1e-50, 68k at 1e-60, 396k at 1e-70: x5.7 per 10 digits). More columns let
// the order control go to ~2 KMax. The step sequence (2, 4, 6, ...), the
// extrapolation coefficients (ratios of integers built in the value type)
// and the order/step control are Odeint's, with two changes (marked
// "nhs:" below) to the order estimate:
//  (1) reset() starts at the order the tolerance asks for,
//      k = -0.6 log10(eps_rel) + 0.5 clamped to [2, KMax - 1] (the
//      estimate Odeint ships commented out "because log10 might not exist
//      for value_type"; it exists for every nhs scalar; Hairer, Norsett,
//      Wanner, ODEX, use the same), instead of a fixed 4;
//  (2) a step size changed from outside (integrate_times cutting a step to
//      end on an output time) no longer calls reset(): the step is tried
//      with every column checked for convergence (as on a first step) at
//      the current order estimate, and once it succeeds, the order estimate
//      and the step proposal from before the cut are restored.
// Why: upstream, each cut step reset the order to 4 at tolerances of
// 1e-90, where the step control wants ~15; the step collapsed to ~1e-12
// and grew back at most 50^(1/(2k+1)) per step, so every output time
// cost 100-300 steps (measured, mp100, skate to t = 1 at rtol 1e-90:
// 347 steps whatever t_end). The error control (the accept/reject test
// on the extrapolation error) is unchanged.
//  (3) the modified midpoint sequences and the extrapolation work on the
//      increment d = x(t + H) - x(t), not on x: d_1 = h f(x), d_{j+1} =
//      d_{j-1} + 2h f(x + d_j), Gragg's smoothing 0.5 (d_{n-1} + d_n +
//      h f(x + d_n)), the tableau extrapolates the d's, and the step ends
//      with x + d, one rounding. Upstream each substep rounded x itself to
//      eps |x|, and the extrapolation, whose weights grow with the number
//      of columns, amplified those roundings: mp50 stopped at 1e-47..1e-45
//      on motions of size 1..10 whatever the tolerance. The same RHS
//      calls per step.
//
// Used by lib/src/integrate.ipp only. The diff against Boost's file is
// patches/bulirsch_stoer_kmax.patch (third_party/odeint/README.md).
#pragma once

#include <boost/numeric/odeint/stepper/bulirsch_stoer.hpp>

namespace nhs {
namespace odeint_patched {

using namespace boost::numeric::odeint;

template<
    class State ,
    class Value = double ,
    class Deriv = State ,
    class Time = Value ,
    class Algebra = typename algebra_dispatcher< State >::algebra_type ,
    class Operations = typename operations_dispatcher< State >::operations_type ,
    class Resizer = initially_resizer ,
    size_t KMax = 8
    >
class bulirsch_stoer_kmax {

public:

    typedef State state_type;
    typedef Value value_type;
    typedef Deriv deriv_type;
    typedef Time time_type;
    typedef Algebra algebra_type;
    typedef Operations operations_type;
    typedef Resizer resizer_type;
#ifndef DOXYGEN_SKIP
    typedef state_wrapper< state_type > wrapped_state_type;
    typedef state_wrapper< deriv_type > wrapped_deriv_type;
    typedef controlled_stepper_tag stepper_category;

    typedef bulirsch_stoer_kmax< State , Value , Deriv , Time , Algebra , Operations , Resizer , KMax > controlled_error_bs_type;

    typedef typename inverse_time< time_type >::type inv_time_type;

    typedef std::vector< value_type > value_vector;
    typedef std::vector< time_type > time_vector;
    typedef std::vector< inv_time_type > inv_time_vector;  //should be 1/time_type for boost.units
    typedef std::vector< value_vector > value_matrix;
    typedef std::vector< size_t > int_vector;
    typedef std::vector< wrapped_state_type > state_table_type;
#endif //DOXYGEN_SKIP
    const static size_t m_k_max = KMax;

    bulirsch_stoer_kmax(
        value_type eps_abs = 1E-6 , value_type eps_rel = 1E-6 ,
        value_type factor_x = 1.0 , value_type factor_dxdt = 1.0 ,
        time_type max_dt = static_cast<time_type>(0))
        : m_error_checker( eps_abs , eps_rel , factor_x, factor_dxdt ) , m_eps_rel( eps_rel ) ,
          m_last_step_rejected( false ) , m_first( true ) ,
          m_max_dt(max_dt) ,
          m_interval_sequence( m_k_max+1 ) ,
          m_coeff( m_k_max+1 ) ,
          m_cost( m_k_max+1 ) ,
          m_facmin_table( m_k_max+1 ) ,
          m_table( m_k_max ) ,
          STEPFAC1( 0.65 ) , STEPFAC2( 0.94 ) , STEPFAC3( 0.02 ) , STEPFAC4( 4.0 ) , KFAC1( 0.8 ) , KFAC2( 0.9 )
    {
        BOOST_USING_STD_MIN();
        BOOST_USING_STD_MAX();
        /* initialize sequence of stage numbers and work */
        for( unsigned short i = 0; i < m_k_max+1; i++ )
        {
            m_interval_sequence[i] = 2 * (i+1);
            if( i == 0 )
                m_cost[i] = m_interval_sequence[i];
            else
                m_cost[i] = m_cost[i-1] + m_interval_sequence[i];
            m_coeff[i].resize(i);
            m_facmin_table[i] = pow BOOST_PREVENT_MACRO_SUBSTITUTION( STEPFAC3 , static_cast< value_type >(1) / static_cast< value_type >( 2*i+1 ) );
            for( size_t k = 0 ; k < i ; ++k  )
            {
                const value_type r = static_cast< value_type >( m_interval_sequence[i] ) / static_cast< value_type >( m_interval_sequence[k] );
                m_coeff[i][k] = 1.0 / ( r*r - static_cast< value_type >( 1.0 ) ); // coefficients for extrapolation
            }
        }
        reset();
    }


    /*
     * Version 1 : try_step( sys , x , t , dt )
     *
     * The overloads are needed to solve the forwarding problem
     */
    template< class System , class StateInOut >
    controlled_step_result try_step( System system , StateInOut &x , time_type &t , time_type &dt )
    {
        return try_step_v1( system , x , t, dt );
    }

    /**
     * \brief Second version to solve the forwarding problem, can be used with Boost.Range as StateInOut.
     */
    template< class System , class StateInOut >
    controlled_step_result try_step( System system , const StateInOut &x , time_type &t , time_type &dt )
    {
        return try_step_v1( system , x , t, dt );
    }

    /*
     * Version 2 : try_step( sys , x , dxdt , t , dt )
     *
     * this version does not solve the forwarding problem, boost.range can not be used
     */
    template< class System , class StateInOut , class DerivIn >
    controlled_step_result try_step( System system , StateInOut &x , const DerivIn &dxdt , time_type &t , time_type &dt )
    {
        m_xnew_resizer.adjust_size( x , boost::numeric::odeint::detail::bind( &controlled_error_bs_type::template resize_m_xnew< StateInOut > , boost::numeric::odeint::detail::ref( *this ) , boost::numeric::odeint::detail::_1 ) );
        controlled_step_result res = try_step( system , x , dxdt , t , m_xnew.m_v , dt );
        if( res == success )
        {
            boost::numeric::odeint::copy( m_xnew.m_v , x );
        }
        return res;
    }

    /*
     * Version 3 : try_step( sys , in , t , out , dt )
     *
     * this version does not solve the forwarding problem, boost.range can not be used
     */
    template< class System , class StateIn , class StateOut >
    typename boost::disable_if< boost::is_same< StateIn , time_type > , controlled_step_result >::type
    try_step( System system , const StateIn &in , time_type &t , StateOut &out , time_type &dt )
    {
        typename boost::numeric::odeint::unwrap_reference< System >::type &sys = system;
        m_dxdt_resizer.adjust_size( in , boost::numeric::odeint::detail::bind( &controlled_error_bs_type::template resize_m_dxdt< StateIn > , boost::numeric::odeint::detail::ref( *this ) , boost::numeric::odeint::detail::_1 ) );
        sys( in , m_dxdt.m_v , t );
        return try_step( system , in , m_dxdt.m_v , t , out , dt );
    }


    /*
     * Full version : try_step( sys , in , dxdt_in , t , out , dt )
     *
     * contains the actual implementation
     */
    template< class System , class StateIn , class DerivIn , class StateOut >
    controlled_step_result try_step( System system , const StateIn &in , const DerivIn &dxdt , time_type &t , StateOut &out , time_type &dt )
    {
        if( m_max_dt != static_cast<time_type>(0) && boost::numeric::odeint::detail::less_with_sign(m_max_dt, dt, dt) )
        {
            // given step size is bigger then max_dt
            // set limit and return fail
            dt = m_max_dt;
            return fail;
        }

        BOOST_USING_STD_MIN();
        BOOST_USING_STD_MAX();

        static const value_type val1( 1.0 );

        if( m_resizer.adjust_size( in , boost::numeric::odeint::detail::bind( &controlled_error_bs_type::template resize_impl< StateIn > , boost::numeric::odeint::detail::ref( *this ) , boost::numeric::odeint::detail::_1 ) ) )
        {
            reset(); // system resized -> reset
        }

        // nhs: (2) a step size changed from outside keeps the order estimate
        // (see the header comment); upstream called reset() here.
        const time_type dt_tried = dt;
        bool cut_from_outside = false;
        size_t k_opt_before_cut = m_current_k_opt;
        time_type dt_before_cut = m_dt_last;
        if( dt != m_dt_last && !m_first )
        {
            cut_from_outside = true;
            m_first = true;
            m_last_step_rejected = false;
        }

        bool reject( true );

        time_vector h_opt( m_k_max+1 );
        inv_time_vector work( m_k_max+1 );

        time_type new_h = dt;

        /* m_current_k_opt is the estimated current optimal stage number */
        for( size_t k = 0 ; k <= m_current_k_opt+1 ; k++ )
        {
            /* the stage counts are stored in m_interval_sequence */
            // nhs: (3) increments: out and the tableau hold x(t + dt) - in.
            if( k == 0 )
            {
                midpoint_increment( system , in , dxdt , t , out , dt , m_interval_sequence[k] );
                /* the first step, nothing more to do */
            }
            else
            {
                midpoint_increment( system , in , dxdt , t , m_table[k-1].m_v , dt , m_interval_sequence[k] );
                extrapolate( k , m_table , m_coeff , out );
                // get error estimate
                m_algebra.for_each3( m_err.m_v , out , m_table[0].m_v ,
                                     typename operations_type::template scale_sum2< value_type , value_type >( val1 , -val1 ) );
                const value_type error = m_error_checker.error( m_algebra , in , dxdt , m_err.m_v , dt );
                h_opt[k] = calc_h_opt( dt , error , k );
                work[k] = static_cast<value_type>( m_cost[k] ) / h_opt[k];

                if( (k == m_current_k_opt-1) || m_first )
                { // convergence before k_opt ?
                    if( error < 1.0 )
                    {
                        //convergence
                        reject = false;
                        if( (work[k] < KFAC2*work[k-1]) || (m_current_k_opt <= 2) )
                        {
                            // leave order as is (except we were in first round)
                            m_current_k_opt = min BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<int>(m_k_max)-1 , max BOOST_PREVENT_MACRO_SUBSTITUTION( 2 , static_cast<int>(k)+1 ) );
                            new_h = h_opt[k];
                            // m_cost has m_k_max + 1 entries: at k = m_k_max (reachable when
                            // the first step starts at a high order) Odeint's m_cost[k+1]
                            // read past its end (valgrind: invalid read of size 8), and the
                            // mp50 runs' step counts varied from run to run.
                            new_h *= static_cast<value_type>( m_cost[(std::min)(k+1, static_cast<size_t>(KMax))] ) / static_cast<value_type>( m_cost[k] );
                        } else {
                            m_current_k_opt = min BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<int>(m_k_max)-1 , max BOOST_PREVENT_MACRO_SUBSTITUTION( 2 , static_cast<int>(k) ) );
                            new_h = h_opt[k];
                        }
                        break;
                    }
                    else if( should_reject( error , k ) && !m_first )
                    {
                        reject = true;
                        new_h = h_opt[k];
                        break;
                    }
                }
                if( k == m_current_k_opt )
                { // convergence at k_opt ?
                    if( error < 1.0 )
                    {
                        //convergence
                        reject = false;
                        if( (work[k-1] < KFAC2*work[k]) )
                        {
                            m_current_k_opt = max BOOST_PREVENT_MACRO_SUBSTITUTION( 2 , static_cast<int>(m_current_k_opt)-1 );
                            new_h = h_opt[m_current_k_opt];
                        }
                        else if( (work[k] < KFAC2*work[k-1]) && !m_last_step_rejected )
                        {
                            m_current_k_opt = min BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<int>(m_k_max-1) , static_cast<int>(m_current_k_opt)+1 );
                            new_h = h_opt[k];
                            new_h *= static_cast<value_type>(m_cost[m_current_k_opt])/static_cast<value_type>(m_cost[k]);
                        } else
                            new_h = h_opt[m_current_k_opt];
                        break;
                    }
                    else if( should_reject( error , k ) )
                    {
                        reject = true;
                        new_h = h_opt[m_current_k_opt];
                        break;
                    }
                }
                if( k == m_current_k_opt+1 )
                { // convergence at k_opt+1 ?
                    if( error < 1.0 )
                    {   //convergence
                        reject = false;
                        if( work[k-2] < KFAC2*work[k-1] )
                            m_current_k_opt = max BOOST_PREVENT_MACRO_SUBSTITUTION( 2 , static_cast<int>(m_current_k_opt)-1 );
                        if( (work[k] < KFAC2*work[m_current_k_opt]) && !m_last_step_rejected )
                            m_current_k_opt = min BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<int>(m_k_max)-1 , static_cast<int>(k) );
                        new_h = h_opt[m_current_k_opt];
                    } else
                    {
                        reject = true;
                        new_h = h_opt[m_current_k_opt];
                    }
                    break;
                }
            }
        }

        if( !reject )
        {
            t += dt;
            // nhs: (3) the step's one rounding of x: out = in + d.
            m_algebra.for_each3( out , in , out ,
                                 typename operations_type::template scale_sum2< value_type , value_type >( val1 , val1 ) );
        }

        if( !m_last_step_rejected || boost::numeric::odeint::detail::less_with_sign(new_h, dt, dt) )
        {
            // limit step size
            if( m_max_dt != static_cast<time_type>(0) )
            {
                new_h = boost::numeric::odeint::detail::min_abs(m_max_dt, new_h);
            }
            m_dt_last = new_h;
            dt = new_h;
        }

        m_last_step_rejected = reject;
        m_first = false;

        // nhs: (2) after a successful cut step, resume the order and step
        // size the control had before the cut.
        if( cut_from_outside && !reject &&
            boost::numeric::odeint::detail::less_with_sign( dt_tried , dt_before_cut , dt_before_cut ) )
        {
            m_current_k_opt = k_opt_before_cut;
            m_dt_last = dt_before_cut;
            dt = dt_before_cut;
        }

        if( reject )
            return fail;
        else
            return success;
    }

    /** \brief Resets the internal state of the stepper */
    void reset()
    {
        m_first = true;
        m_last_step_rejected = false;
        // nhs: (1) the order the tolerance asks for, instead of a fixed 4.
        using std::log10;
        const value_type k_est = -log10( m_eps_rel ) * static_cast< value_type >( 6 ) / static_cast< value_type >( 10 ) + static_cast< value_type >( 1 ) / static_cast< value_type >( 2 );
        m_current_k_opt = 2;
        while( m_current_k_opt < m_k_max - 1 && static_cast< value_type >( m_current_k_opt + 1 ) <= k_est )
            ++m_current_k_opt;
        /* no calculation because log10 might not exist for value_type!
        const value_type logfact( -log10( max BOOST_PREVENT_MACRO_SUBSTITUTION( eps_rel , static_cast< value_type >(1.0E-12) ) ) * 0.6 + 0.5 );
        m_current_k_opt = max BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<value_type>( 1 ) , min BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<value_type>( m_k_max-1 ) , logfact ));
        */
    }


    /* Resizer methods */

    template< class StateIn >
    void adjust_size( const StateIn &x )
    {
        resize_m_dxdt( x );
        resize_m_xnew( x );
        resize_impl( x );
    }


private:

    template< class StateIn >
    bool resize_m_dxdt( const StateIn &x )
    {
        return adjust_size_by_resizeability( m_dxdt , x , typename is_resizeable<deriv_type>::type() );
    }

    template< class StateIn >
    bool resize_m_xnew( const StateIn &x )
    {
        return adjust_size_by_resizeability( m_xnew , x , typename is_resizeable<state_type>::type() );
    }

    template< class StateIn >
    bool resize_impl( const StateIn &x )
    {
        bool resized( false );
        for( size_t i = 0 ; i < m_k_max ; ++i )
            resized |= adjust_size_by_resizeability( m_table[i] , x , typename is_resizeable<state_type>::type() );
        resized |= adjust_size_by_resizeability( m_err , x , typename is_resizeable<state_type>::type() );
        // nhs: (3)
        resized |= adjust_size_by_resizeability( m_d0 , x , typename is_resizeable<state_type>::type() );
        resized |= adjust_size_by_resizeability( m_d1 , x , typename is_resizeable<state_type>::type() );
        resized |= adjust_size_by_resizeability( m_xe , x , typename is_resizeable<state_type>::type() );
        resized |= adjust_size_by_resizeability( m_f , x , typename is_resizeable<deriv_type>::type() );
        return resized;
    }

    // nhs: (3) Odeint's modified_midpoint::do_step on the increment: out =
    // x(t + dt) - in after `steps` substeps of dt / steps, with Gragg's
    // smoothing (the same RHS calls at the same times and states up to the
    // rounding of in + d).
    template< class System , class StateIn , class DerivIn , class StateOut >
    void midpoint_increment( System system , const StateIn &in , const DerivIn &dxdt , time_type t ,
                             StateOut &out , time_type dt , unsigned short steps )
    {
        static const value_type val1 = static_cast< value_type >( 1 );
        static const value_type val05 = static_cast< value_type >( 1 ) / static_cast< value_type >( 2 );
        typename boost::numeric::odeint::unwrap_reference< System >::type &sys = system;
        const time_type h = dt / static_cast< value_type >( steps );
        const time_type h2 = static_cast< value_type >( 2 ) * h;
        // m_d0 = 0, m_d1 = h dxdt
        m_algebra.for_each2( m_d0.m_v , dxdt , typename operations_type::template scale_sum1< value_type >( static_cast< value_type >( 0 ) ) );
        m_algebra.for_each2( m_d1.m_v , dxdt , typename operations_type::template scale_sum1< time_type >( h ) );
        for( unsigned short i = 1 ; i < steps ; ++i )
        {
            m_algebra.for_each3( m_xe.m_v , in , m_d1.m_v ,
                                 typename operations_type::template scale_sum2< value_type , value_type >( val1 , val1 ) );
            sys( m_xe.m_v , m_f.m_v , t + h * static_cast< value_type >( i ) );
            // tmp = m_d1; m_d1 = m_d0 + h2 m_f; m_d0 = tmp
            m_algebra.for_each3( m_d1.m_v , m_d0.m_v , m_f.m_v ,
                                 typename operations_type::template scale_sum_swap2< value_type , time_type >( val1 , h2 ) );
        }
        m_algebra.for_each3( m_xe.m_v , in , m_d1.m_v ,
                             typename operations_type::template scale_sum2< value_type , value_type >( val1 , val1 ) );
        sys( m_xe.m_v , m_f.m_v , t + dt );
        m_algebra.for_each4( out , m_d0.m_v , m_d1.m_v , m_f.m_v ,
                             typename operations_type::template scale_sum3< value_type , value_type , time_type >( val05 , val05 , val05 * h ) );
    }


    template< class System , class StateInOut >
    controlled_step_result try_step_v1( System system , StateInOut &x , time_type &t , time_type &dt )
    {
        typename boost::numeric::odeint::unwrap_reference< System >::type &sys = system;
        m_dxdt_resizer.adjust_size( x , boost::numeric::odeint::detail::bind( &controlled_error_bs_type::template resize_m_dxdt< StateInOut > , boost::numeric::odeint::detail::ref( *this ) , boost::numeric::odeint::detail::_1 ) );
        sys( x , m_dxdt.m_v ,t );
        return try_step( system , x , m_dxdt.m_v , t , dt );
    }


    template< class StateInOut >
    void extrapolate( size_t k , state_table_type &table , const value_matrix &coeff , StateInOut &xest )
    /* polynomial extrapolation, see http://www.nr.com/webnotes/nr3web21.pdf
       uses the obtained intermediate results to extrapolate to dt->0 
    */
    {
        static const value_type val1 = static_cast< value_type >( 1.0 );
        for( int j=k-1 ; j>0 ; --j )
        {
            m_algebra.for_each3( table[j-1].m_v , table[j].m_v , table[j-1].m_v ,
                                 typename operations_type::template scale_sum2< value_type , value_type >( val1 + coeff[k][j] , -coeff[k][j] ) );
        }
        m_algebra.for_each3( xest , table[0].m_v , xest ,
                             typename operations_type::template scale_sum2< value_type , value_type >( val1 + coeff[k][0] , -coeff[k][0]) );
    }

    time_type calc_h_opt( time_type h , value_type error , size_t k ) const
    /* calculates the optimal step size for a given error and stage number */
    {
        BOOST_USING_STD_MIN();
        BOOST_USING_STD_MAX();
        using std::pow;
        value_type expo( 1.0/(2*k+1) );
        value_type facmin = m_facmin_table[k];
        value_type fac;
        if (error == 0.0)
            fac=1.0/facmin;
        else
        {
            fac = STEPFAC2 / pow BOOST_PREVENT_MACRO_SUBSTITUTION( error / STEPFAC1 , expo );
            fac = max BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<value_type>(facmin/STEPFAC4) , min BOOST_PREVENT_MACRO_SUBSTITUTION( static_cast<value_type>(1.0/facmin) , fac ) );
        }
        return h*fac;
    }

    controlled_step_result set_k_opt( size_t k , const inv_time_vector &work , const time_vector &h_opt , time_type &dt )
    /* calculates the optimal stage number */
    {
        if( k == 1 )
        {
            m_current_k_opt = 2;
            return success;
        }
        if( (work[k-1] < KFAC1*work[k]) || (k == m_k_max) )
        {   // order decrease
            m_current_k_opt = k-1;
            dt = h_opt[ m_current_k_opt ];
            return success;
        }
        else if( (work[k] < KFAC2*work[k-1]) || m_last_step_rejected || (k == m_k_max-1) )
        {   // same order - also do this if last step got rejected
            m_current_k_opt = k;
            dt = h_opt[ m_current_k_opt ];
            return success;
        }
        else
        {   // order increase - only if last step was not rejected
            m_current_k_opt = k+1;
            dt = h_opt[ m_current_k_opt-1 ] * m_cost[ m_current_k_opt ] / m_cost[ m_current_k_opt-1 ] ;
            return success;
        }
    }

    bool in_convergence_window( size_t k ) const
    {
        if( (k == m_current_k_opt-1) && !m_last_step_rejected )
            return true; // decrease stepsize only if last step was not rejected
        return ( (k == m_current_k_opt) || (k == m_current_k_opt+1) );
    }

    bool should_reject( value_type error , size_t k ) const
    {
        if( k == m_current_k_opt-1 )
        {
            const value_type d = m_interval_sequence[m_current_k_opt] * m_interval_sequence[m_current_k_opt+1] /
                (m_interval_sequence[0]*m_interval_sequence[0]);
            //step will fail, criterion 17.3.17 in NR
            return ( error > d*d );
        }
        else if( k == m_current_k_opt )
        {
            const value_type d = m_interval_sequence[m_current_k_opt] / m_interval_sequence[0];
            return ( error > d*d );
        } else
            return error > 1.0;
    }

    default_error_checker< value_type, algebra_type , operations_type > m_error_checker;
    value_type m_eps_rel;  // nhs: (1)
    // nhs: (3) Odeint's modified_midpoint member replaced by midpoint_increment.

    bool m_last_step_rejected;
    bool m_first;

    time_type m_dt_last;
    time_type m_t_last;
    time_type m_max_dt;

    size_t m_current_k_opt;

    algebra_type m_algebra;

    resizer_type m_dxdt_resizer;
    resizer_type m_xnew_resizer;
    resizer_type m_resizer;

    wrapped_state_type m_xnew;
    wrapped_state_type m_err;
    wrapped_deriv_type m_dxdt;

    int_vector m_interval_sequence; // stores the successive interval counts
    value_matrix m_coeff;
    int_vector m_cost; // costs for interval count
    value_vector m_facmin_table; // for precomputed facmin to save pow calls

    state_table_type m_table; // sequence of states for extrapolation

    // nhs: (3) the midpoint's increments, the state x + d and f there.
    wrapped_state_type m_d0 , m_d1 , m_xe;
    wrapped_deriv_type m_f;

    value_type STEPFAC1 , STEPFAC2 , STEPFAC3 , STEPFAC4 , KFAC1 , KFAC2;
};


/******** DOXYGEN ********/
/**
 * \class bulirsch_stoer
 * \brief The Bulirsch-Stoer algorithm.
 * 
 * The Bulirsch-Stoer is a controlled stepper that adjusts both step size
 * and order of the method. The algorithm uses the modified midpoint and
 * a polynomial extrapolation compute the solution.
 *
 * \tparam State The state type.
 * \tparam Value The value type.
 * \tparam Deriv The type representing the time derivative of the state.
 * \tparam Time The time representing the independent variable - the time.
 * \tparam Algebra The algebra type.
 * \tparam Operations The operations type.
 * \tparam Resizer The resizer policy type.
 */

    /**
     * \fn bulirsch_stoer::bulirsch_stoer_kmax( value_type eps_abs , value_type eps_rel , value_type factor_x , value_type factor_dxdt )
     * \brief Constructs the bulirsch_stoer class, including initialization of 
     * the error bounds.
     *
     * \param eps_abs Absolute tolerance level.
     * \param eps_rel Relative tolerance level.
     * \param factor_x Factor for the weight of the state.
     * \param factor_dxdt Factor for the weight of the derivative.
     */

    /**
     * \fn bulirsch_stoer::try_step( System system , StateInOut &x , time_type &t , time_type &dt )
     * \brief Tries to perform one step.
     *
     * This method tries to do one step with step size dt. If the error estimate
     * is to large, the step is rejected and the method returns fail and the 
     * step size dt is reduced. If the error estimate is acceptably small, the
     * step is performed, success is returned and dt might be increased to make 
     * the steps as large as possible. This method also updates t if a step is
     * performed. Also, the internal order of the stepper is adjusted if required.
     *
     * \param system The system function to solve, hence the r.h.s. of the ODE. 
     * It must fulfill the Simple System concept.
     * \param x The state of the ODE which should be solved. Overwritten if 
     * the step is successful.
     * \param t The value of the time. Updated if the step is successful.
     * \param dt The step size. Updated.
     * \return success if the step was accepted, fail otherwise.
     */

    /**
     * \fn bulirsch_stoer::try_step( System system , StateInOut &x , const DerivIn &dxdt , time_type &t , time_type &dt )
     * \brief Tries to perform one step.
     *
     * This method tries to do one step with step size dt. If the error estimate
     * is to large, the step is rejected and the method returns fail and the 
     * step size dt is reduced. If the error estimate is acceptably small, the
     * step is performed, success is returned and dt might be increased to make 
     * the steps as large as possible. This method also updates t if a step is
     * performed. Also, the internal order of the stepper is adjusted if required.
     *
     * \param system The system function to solve, hence the r.h.s. of the ODE. 
     * It must fulfill the Simple System concept.
     * \param x The state of the ODE which should be solved. Overwritten if 
     * the step is successful.
     * \param dxdt The derivative of state.
     * \param t The value of the time. Updated if the step is successful.
     * \param dt The step size. Updated.
     * \return success if the step was accepted, fail otherwise.
     */

    /**
     * \fn bulirsch_stoer::try_step( System system , const StateIn &in , time_type &t , StateOut &out , time_type &dt )
     * \brief Tries to perform one step.
     *
     * \note This method is disabled if state_type=time_type to avoid ambiguity.
     *
     * This method tries to do one step with step size dt. If the error estimate
     * is to large, the step is rejected and the method returns fail and the 
     * step size dt is reduced. If the error estimate is acceptably small, the
     * step is performed, success is returned and dt might be increased to make 
     * the steps as large as possible. This method also updates t if a step is
     * performed. Also, the internal order of the stepper is adjusted if required.
     *
     * \param system The system function to solve, hence the r.h.s. of the ODE. 
     * It must fulfill the Simple System concept.
     * \param in The state of the ODE which should be solved.
     * \param t The value of the time. Updated if the step is successful.
     * \param out Used to store the result of the step.
     * \param dt The step size. Updated.
     * \return success if the step was accepted, fail otherwise.
     */


    /**
     * \fn bulirsch_stoer::try_step( System system , const StateIn &in , const DerivIn &dxdt , time_type &t , StateOut &out , time_type &dt )
     * \brief Tries to perform one step.
     *
     * This method tries to do one step with step size dt. If the error estimate
     * is to large, the step is rejected and the method returns fail and the 
     * step size dt is reduced. If the error estimate is acceptably small, the
     * step is performed, success is returned and dt might be increased to make 
     * the steps as large as possible. This method also updates t if a step is
     * performed. Also, the internal order of the stepper is adjusted if required.
     *
     * \param system The system function to solve, hence the r.h.s. of the ODE. 
     * It must fulfill the Simple System concept.
     * \param in The state of the ODE which should be solved.
     * \param dxdt The derivative of state.
     * \param t The value of the time. Updated if the step is successful.
     * \param out Used to store the result of the step.
     * \param dt The step size. Updated.
     * \return success if the step was accepted, fail otherwise.
     */


    /**
     * \fn bulirsch_stoer::adjust_size( const StateIn &x )
     * \brief Adjust the size of all temporaries in the stepper manually.
     * \param x A state from which the size of the temporaries to be resized is deduced.
     */

}  // namespace odeint_patched
}  // namespace nhs

